'use client';

import { useTranslations } from 'next-intl';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PublishTrigger } from '@/shared/catalog';
import { shortDateTime } from '../../_lib/format';
import styles from '../staff.module.css';

interface Run {
  id: number;
  at: string;
  published: number;
  requested: number;
  trigger: PublishTrigger;
}

// The tokens of globals.css (--accent, --ink-soft, --line): SVG attributes take plain colours, and
// these are what the tokens say. Both bar colours keep 3:1 against the paper.
const accent = '#8b3a26';
const requestedFill = '#5f564b';
const ink = '#5f564b';
const grid = '#dcd2c1';

/** The last 30 publish runs, oldest left: what each was asked for and what it published. */
export function PublishChart({ locale, runs }: { locale: string; runs: Run[] }) {
  const t = useTranslations('Staff.catalog');
  const data = runs.map((r) => ({ ...r, label: shortDateTime(r.at, locale) }));
  const number = new Intl.NumberFormat(locale);
  return (
    <figure aria-label={t('chartLabel')} style={{ margin: 0 }}>
      <div style={{ width: '100%', height: 260 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid stroke={grid} vertical={false} />
            <XAxis dataKey="label" tick={{ fill: ink, fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fill: ink, fontSize: 11 }} width={44} tickFormatter={(v: number) => number.format(v)} />
            <Tooltip formatter={(value) => number.format(Number(value))} labelFormatter={(label) => `${String(label)} UTC`} />
            <Legend formatter={(value) => <span style={{ color: ink }}>{value}</span>} />
            <Bar dataKey="requested" name={t('run.requested')} fill={requestedFill} radius={[2, 2, 0, 0]} isAnimationActive={false} />
            <Bar dataKey="published" name={t('run.published')} fill={accent} radius={[2, 2, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className={styles.chartCaption}>{t('chartCaption', { count: runs.length })}</figcaption>
    </figure>
  );
}
