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
    hidden: () => {
      viewer.destroy();
    },
  });
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
