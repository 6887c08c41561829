import type { Frame } from '@/shared/canvas';
import styles from './order.module.css';

/** A small landscape standing for the painting itself, drawn inside each finish at (x, y). */
function Motif({ x, y, width, height }: { x: number; y: number; width: number; height: number }) {
  return (
    <g>
      <rect x={x} y={y} width={width} height={height} className={styles.finishSky} />
      <circle cx={x + width * 0.72} cy={y + height * 0.32} r={Math.min(width, height) * 0.12} className={styles.finishSun} />
      <path
        d={`M${x} ${y + height * 0.78} Q${x + width * 0.3} ${y + height * 0.45} ${x + width * 0.55} ${y + height * 0.7} T${x + width} ${y + height * 0.6} V${y + height} H${x} Z`}
        className={styles.finishHill}
      />
    </g>
  );
}

/**
 * How each finish looks when it arrives (issue #42: "frame choices shown with a picture"): a canvas
 * half unrolled from its tube, a canvas showing the depth of its stretcher, a canvas in its
 * moulding. Drawn, not photographed, so it is the same for every painting; decorative, as the
 * finish's name and description beside it say the same in words.
 */
export function FinishPicture({ finish }: { finish: Frame }) {
  return (
    <svg className={styles.finishPicture} viewBox="0 0 64 48" width="64" height="48" aria-hidden="true" focusable="false">
      {finish === 'rolled' ? (
        <>
          <Motif x={14} y={20} width={36} height={22} />
          <rect x={10} y={10} width={44} height={13} rx={6.5} className={styles.finishTube} />
          <ellipse cx={47.5} cy={16.5} rx={3.5} ry={6.5} className={styles.finishTubeEnd} />
        </>
      ) : finish === 'stretched' ? (
        <>
          <path d="M48 8 L54 12 V42 L48 38 Z" className={styles.finishEdge} />
          <Motif x={12} y={8} width={36} height={30} />
        </>
      ) : (
        <>
          <rect x={8} y={5} width={48} height={38} className={styles.finishMoulding} />
          <rect x={12} y={9} width={40} height={30} className={styles.finishBevel} />
          <Motif x={14} y={11} width={36} height={26} />
        </>
      )}
    </svg>
  );
}
