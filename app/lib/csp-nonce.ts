// The Content-Security-Policy nonce of this page (server/web/security-headers.ts).
// The server renders with the response's nonce (entry.server.tsx provides it);
// the browser reads it back from the page's own scripts (the `nonce` property:
// browsers hide the attribute's value from the DOM) so that styles antd adds
// later carry it too.
import { createContext, useContext } from 'react';

function nonceOfThisPage(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce || undefined;
}

export const CspNonceContext = createContext<string | undefined>(nonceOfThisPage());

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}

/**
 * Some of antd's helpers (@rc-component's scroll locker under a dialog, its
 * scrollbar measure) add <style> elements without a way to pass a nonce. The
 * browser gives such an element the page's nonce when the app's own code
 * inserts it: script-inserted styles need running script, which the policy
 * already guards; a <style> injected into the markup stays refused.
 */
export function nonceScriptInsertedStyles(): void {
  const nonce = nonceOfThisPage();
  if (!nonce) return;
  const patch = <K extends 'appendChild' | 'insertBefore'>(method: K) => {
    const original = Node.prototype[method] as (...args: unknown[]) => unknown;
    (Node.prototype as unknown as Record<K, unknown>)[method] = function (this: Node, node: unknown, ...rest: unknown[]) {
      if (node instanceof HTMLStyleElement && !node.nonce) node.nonce = nonce;
      return original.call(this, node, ...rest);
    };
  };
  patch('appendChild');
  patch('insertBefore');
}
