/**
 * "See it on your wall" (issue 7, item 3): `WallPreview` ({ widthCm, heightCm, frame, imageSrc,
 * alt }) hangs the chosen size and frame at true scale in rooms drawn for the project or on the
 * shopper's own wall photo. Use `canvasCm(size, ratio)` from `@/components/order` for the sizes.
 */
export { WallPreview } from './wall-preview';
export type { WallPreviewProps } from './wall-preview';
