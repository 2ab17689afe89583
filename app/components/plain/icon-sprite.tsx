// Icons repeated down a list, drawn once. The country page's product cards show
// four icons each: as antd icon components that was ~90 inline SVG copies (60 KB
// of the page's HTML) and as many components to hydrate, each with an effect.
// Here the page draws each icon once as a <symbol> (IconSprite) and each card
// refers to it (SpriteIcon): a few bytes and no effect per use. The shapes are
// antd's own icon definitions, the markup and class that of antd's icons
// (`.anticon`), so they look the same. Decorative only: hidden from assistive
// technology, like the icons they replace (the text beside them says it).
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/lib/types';
import { createElement, type ReactNode } from 'react';
import './plain.css';

const symbolId = (icon: IconDefinition) => `icon-${icon.name}-${icon.theme}`;

function render(node: AbstractNode, key?: number): ReactNode {
  return createElement(node.tag, { ...node.attrs, key }, ...(node.children ?? []).map((child, index) => render(child, index)));
}

/** The symbols of these icons, once per page (before their first use or after: either works). */
export function IconSprite({ icons }: { icons: IconDefinition[] }) {
  return (
    <svg className="icon-sprite" aria-hidden="true" focusable="false">
      {icons.map((icon) => {
        // Two-tone icons are functions of their colours; the sprite takes single-colour ones.
        const svg = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
        return (
          <symbol key={symbolId(icon)} id={symbolId(icon)} viewBox={svg.attrs.viewBox}>
            {(svg.children ?? []).map((child, index) => render(child, index))}
          </symbol>
        );
      })}
    </svg>
  );
}

/** One use of an icon of the page's IconSprite, sized and coloured like an antd icon (1em, currentColor). */
export function SpriteIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  return (
    <span aria-hidden="true" className={className ? `anticon ${className}` : 'anticon'}>
      <svg width="1em" height="1em" fill="currentColor" focusable="false">
        <use href={`#${symbolId(icon)}`} />
      </svg>
    </span>
  );
}
