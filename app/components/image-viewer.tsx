import type { ImgHTMLAttributes, KeyboardEvent } from 'react';
import { IMAGE_VIEWER_Z_INDEX } from '../../common/constants';

export interface ViewerImage {
  src: string;
  title?: string;
}

/**
 * Opens a full-screen viewer (spec §2.6) over `images`, starting at `startIndex`.
 * viewerjs and its stylesheet are loaded on first use, so server rendering never
 * evaluates them. The viewer and its DOM are destroyed once it is hidden.
 */
/** The viewer's controls by their data-viewer-action, named in Chinese. */
const VIEWER_LABELS: Record<string, string> = {
  'zoom-in': '放大',
  'zoom-out': '缩小',
  'one-to-one': '原始大小',
  reset: '还原',
  prev: '上一张',
  play: '播放',
  next: '下一张',
  'rotate-left': '向左旋转',
  'rotate-right': '向右旋转',
  'flip-horizontal': '水平翻转',
  'flip-vertical': '垂直翻转',
  mix: '适应窗口',
  view: '查看',
};

export async function openImageViewer(images: ViewerImage[], startIndex = 0): Promise<void> {
  if (images.length === 0) return;
  const [{ default: Viewer }] = await Promise.all([import('viewerjs'), import('viewerjs/dist/viewer.css')]);

  // viewerjs reads its images from a DOM subtree; a detached list is enough.
  const list = document.createElement('div');
  for (const image of images) {
    const img = document.createElement('img');
    img.src = image.src;
    img.alt = image.title ?? '';
    list.appendChild(img);
  }

  const viewer = new Viewer(list, {
    initialViewIndex: Math.min(Math.max(startIndex, 0), images.length - 1),
    toolbar: {
      zoomIn: true,
      zoomOut: true,
      oneToOne: true,
      reset: true,
      prev: true,
      play: true,
      next: true,
      rotateLeft: true,
      rotateRight: true,
      flipHorizontal: true,
      flipVertical: true,
    },
    navbar: true,
    title: true,
    tooltip: true,
    movable: true,
    zoomable: true,
    rotatable: true,
    scalable: true,
    transition: true,
    fullscreen: true,
    keyboard: true,
    zIndex: IMAGE_VIEWER_Z_INDEX,
    // viewerjs's toolbar items are li role=button with only a CSS icon: each gets its Chinese name (axe aria-command-name).
    shown: () => nameControls(),
    viewed: () => nameControls(),
    hidden: () => {
      viewer.destroy();
    },
  });
  function nameControls() {
    const root = (viewer as unknown as { viewer?: HTMLElement }).viewer;
    if (!root) return;
    // The toolbar's list holds role=button items: a toolbar, not a list (axe list). The navbar marks the current
    // image with aria-selected, which its items' role does not allow: aria-current instead (axe aria-allowed-attr).
    for (const list of root.querySelectorAll<HTMLElement>('.viewer-toolbar > ul')) list.setAttribute('role', 'toolbar');
    for (const item of root.querySelectorAll<HTMLElement>('.viewer-navbar [aria-selected]')) {
      item.setAttribute('aria-current', item.getAttribute('aria-selected') === 'true' ? 'true' : 'false');
      item.removeAttribute('aria-selected');
    }
    // The title reads white on a dark band, not grey on grey (axe color-contrast).
    for (const title of root.querySelectorAll<HTMLElement>('.viewer-title')) {
      title.style.color = '#fff';
      title.style.backgroundColor = 'rgba(0, 0, 0, 0.8)';
    }
    for (const [action, label] of Object.entries(VIEWER_LABELS)) {
      for (const item of root.querySelectorAll<HTMLElement>(`[data-viewer-action="${action}"]`)) {
        item.setAttribute('aria-label', label);
        item.setAttribute('title', label);
      }
    }
  }
  viewer.show();
}

export interface ImageThumbProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'title'> {
  src: string;
  title?: string;
  /** The gallery the viewer pages through; defaults to this image alone. */
  gallery?: ViewerImage[];
  /** This image's position in `gallery`. */
  index?: number;
}

/** A thumbnail that opens the image viewer on click, Enter or Space. */
export function ImageThumb({ src, title, gallery, index = 0, alt, style, ...imgProps }: ImageThumbProps) {
  const open = () => {
    void (gallery ? openImageViewer(gallery, index) : openImageViewer([{ src, title }]));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLImageElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    }
  };

  return (
    <img
      {...imgProps}
      src={src}
      title={title}
      alt={alt ?? title ?? ''}
      role="button"
      tabIndex={0}
      style={{ cursor: 'zoom-in', ...style }}
      onClick={open}
      onKeyDown={onKeyDown}
    />
  );
}
