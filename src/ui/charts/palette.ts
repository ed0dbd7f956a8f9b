// Chart colours: canvases need concrete values; these match styles.css's variables.
export type Tone = 'good' | 'neutral' | 'warn' | 'bad' | 'grey';

export const TONE_COLOR: Readonly<Record<Tone, string>> = {
  good: '#1a7f37',
  neutral: '#57606a',
  warn: '#9a6700',
  bad: '#b3261e',
  grey: '#9aa3ad',
};

export const ACCENT = '#0b5cad';
export const GRID = '#d0d7de';
/** Log axes draw a line at every 1–9 multiple: lighter, so the roof and the points stand out. */
export const GRID_LOG = 'rgba(208, 215, 222, 0.55)';
export const BAND_FILL = 'rgba(87, 96, 106, 0.12)';
