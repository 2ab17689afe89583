import { starFillPercent } from '../../../../common/format';

/**
 * Five grey stars with a gold layer on top, filled to score × 20% (spec §9).
 * The stars are one CSS mask over two fills (product-page.css, .pd-stars): two
 * elements a rating, where ten inline SVG icons each made the product page's
 * eleven ratings 60 KB of its 145 KB of HTML (decision 0014).
 */
export function StarBar({ score, size = 14 }: { score: number; size?: number }) {
  const fill = starFillPercent(score);
  return (
    <span className="pd-stars" style={{ fontSize: size }} role="img" aria-label={`${score} 星`} data-fill={fill}>
      <span className="pd-stars-full" style={{ width: fill }} />
    </span>
  );
}
