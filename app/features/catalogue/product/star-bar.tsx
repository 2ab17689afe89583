import { StarFilled } from '@ant-design/icons';
import { starFillPercent } from '../../../../common/format';

const FIVE = [0, 1, 2, 3, 4];

/** Five grey stars with a coloured layer on top, filled to score × 20% (spec §9). */
export function StarBar({ score, size = 14 }: { score: number; size?: number }) {
  const fill = starFillPercent(score);
  return (
    <span className="pd-stars" style={{ fontSize: size }} role="img" aria-label={`${score} 星`} data-fill={fill}>
      <span className="pd-stars-empty" aria-hidden="true">
        {FIVE.map((i) => (
          <StarFilled key={i} />
        ))}
      </span>
      <span className="pd-stars-full" style={{ width: fill }} aria-hidden="true">
        {FIVE.map((i) => (
          <StarFilled key={i} />
        ))}
      </span>
    </span>
  );
}
