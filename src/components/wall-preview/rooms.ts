/**
 * The rooms drawn for the wall preview (public/rooms/*.svg). Each is drawn straight on at a fixed
 * scale, so a centimetre of wall is always the same number of SVG units: the viewBox is 1600 units
 * for 400 cm of wall (4 units a centimetre), 1000 units high, the floor line at y = 920.
 */
export const roomIds = ['living', 'bedroom', 'office'] as const;
export type RoomId = (typeof roomIds)[number];

export interface Room {
  id: RoomId;
  src: string;
  /** The SVG's viewBox size. */
  viewBox: { width: number; height: number };
  /** How much wall the picture shows from side to side: the scale of everything drawn on it. */
  wallWidthCm: number;
  /** The floor line (the top of the floor, the foot of the wall) in SVG units from the top. */
  floorY: number;
  /** Where the painting hangs across the wall (the middle of the sofa, bed or desk), in SVG units. */
  centreX: number;
  /** The top of the furniture under the painting, the hanging height and the ceiling, in cm above the floor. */
  furnitureTopCm: number;
  eyeLevelCm: number;
  ceilingCm: number;
}

const common = { viewBox: { width: 1600, height: 1000 }, wallWidthCm: 400, floorY: 920, centreX: 800, eyeLevelCm: 150, ceilingCm: 230 };

export const rooms: Record<RoomId, Room> = {
  living: { id: 'living', src: '/rooms/living-room.svg', ...common, furnitureTopCm: 86 },
  bedroom: { id: 'bedroom', src: '/rooms/bedroom.svg', ...common, furnitureTopCm: 100 },
  office: { id: 'office', src: '/rooms/office.svg', ...common, furnitureTopCm: 76 },
};

/** SVG units per centimetre of wall in a room picture. */
export const unitsPerCm = (room: Room) => room.viewBox.width / room.wallWidthCm;
