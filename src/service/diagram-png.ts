import { Resvg } from '@resvg/resvg-js';

/*
 * PNG from the diagram's SVG with resvg (its native binary ships inside the
 * npm package). The fonts come from the dejavu-fonts-ttf package rather than
 * the system, so a PNG is the same on every machine and in the slim
 * container, which has no fonts at all.
 */
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) => require.resolve(`dejavu-fonts-ttf/ttf/${file}`));

/** Rasterises SVG text to a PNG `width` pixels wide (the height keeps the aspect ratio). */
export function rasterisePng(svg: string, width: number): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
