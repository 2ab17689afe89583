// A part of a server-rendered page that React hydrates after the rest, in its
// own pass (React's selective hydration: a Suspense boundary found in the
// server's HTML is left as it is while the page around it hydrates and commits,
// then hydrated at a lower priority). The visitor sees no difference: the
// part is in the HTML and painted from the start, nothing here ever suspends,
// and a click inside it before its turn makes React hydrate it at once and
// then deliver the click.
//
// Why: hydrating a whole catalogue page in one go left one long task after the
// paint, which a phone feels and Lighthouse's mobile score counts four times
// over (decision 0014, "Shorter tasks after the paint"). The guest pages wrap
// what lies below the first screen in these boundaries.
import { Suspense, type ReactNode } from 'react';

export function HydrationBoundary({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
