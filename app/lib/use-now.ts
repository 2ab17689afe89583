// The current time, refreshed every `intervalMs`, for countdown texts. It is
// null until the page runs in the browser, so the server's HTML and the first
// client render agree (no hydration mismatch on a ticking clock).
import { useEffect, useState } from 'react';

export function useNow(intervalMs = 30_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
