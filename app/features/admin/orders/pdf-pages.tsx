// A PDF's first pages drawn inline (issue 27: a PDF showed as an empty dark
// box in the review). PDF.js (pdfjs-dist) is loaded in the browser only, the
// first time a PDF is shown, with its worker as a file of its own; the server
// renders an empty frame with the file's link.
import { useEffect, useRef, useState } from 'react';

/** Pages drawn per file: enough to see what was uploaded; the link opens the whole file. */
const MAX_PAGES = 3;

type PdfJs = typeof import('pdfjs-dist');
let pdfjs: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  });
  return pdfjs;
}

export function PdfPages({ url, title }: { url: string; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');
  const [pages, setPages] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    setState('loading');
    void (async () => {
      try {
        const lib = await loadPdfJs();
        const task = lib.getDocument({ url, withCredentials: true });
        destroy = () => void task.destroy();
        const doc = await task.promise;
        const shown = Math.min(doc.numPages, MAX_PAGES);
        const target = box.current;
        if (cancelled || !target) return;
        target.replaceChildren();
        for (let n = 1; n <= shown; n += 1) {
          const page = await doc.getPage(n);
          if (cancelled) return;
          const viewport = page.getViewport({ scale: 1.5 });
          const canvas = document.createElement('canvas');
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          canvas.className = 'fr-pdf-page';
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', `${title} 第 ${n} 页`);
          target.append(canvas);
          await page.render({ canvasContext: canvas.getContext('2d')!, viewport }).promise;
        }
        setPages(doc.numPages);
        setState('shown');
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [url, title]);

  return (
    <div className="fr-pdf" data-testid="review-pdf" data-state={state}>
      <div ref={box} className="fr-pdf-pages" />
      {state === 'loading' ? <p className="aw-muted">正在加载 PDF…</p> : null}
      {state === 'failed' ? <p className="aw-muted">PDF 无法显示，请打开原文件查看。</p> : null}
      {pages > MAX_PAGES ? (
        <p className="aw-muted">
          共 {pages} 页，此处显示前 {MAX_PAGES} 页。
        </p>
      ) : null}
      <a href={url} target="_blank" rel="noopener noreferrer">
        打开原文件
      </a>
    </div>
  );
}
