/**
 * A large, realistic floor plan for sizing tests and the benchmark: rooms as groups of walls (long
 * paths, as CAD exports write them), a fill, a label and fixtures, `elements` elements in all, padded
 * with wall detail up to about `bytes`.
 */
export function largeFloorPlan({ elements = 50_000, bytes = 10_000_000 - 64 * 1024 } = {}): string {
  const perRoom = 10; // g, rect, text, 7 paths
  const rooms = Math.ceil((elements - 1) / perRoom);
  const columns = Math.ceil(Math.sqrt(rooms));
  const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${columns * 100} ${columns * 100}">`;
  const tail = '</svg>';
  // Bytes of everything but the path data, to spread the rest over the paths.
  const skeleton = (i: number) => {
    const x = (i % columns) * 100;
    const y = Math.floor(i / columns) * 100;
    return (
      `<g id="room-${i}" transform="translate(${x},${y})">` +
      `<rect x="2" y="2" width="96" height="96" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="1.5"/>` +
      `<text x="8" y="18" font-family="sans-serif" font-size="9" fill="#3d4753">Room ${i}</text>`
    );
  };
  let fixed = head.length + tail.length;
  for (let i = 0; i < rooms; i++)
    fixed += skeleton(i).length + '</g>'.length + 7 * '<path d="" stroke="#8893a0" fill="none"/>'.length;
  const perPath = Math.max(8, Math.floor((bytes - fixed) / (rooms * 7)));
  const path = (i: number, k: number) => {
    let d = `M${(i + k) % 90} ${k * 12}`;
    let n = 0;
    while (d.length < perPath - 12) {
      n++;
      d += ` L${(n * 7 + k) % 96}.${n % 10} ${(n * 13 + i) % 96}.${(n + k) % 10}`;
    }
    return `<path d="${d.slice(0, perPath)}" stroke="#8893a0" fill="none"/>`;
  };
  const parts = [head];
  for (let i = 0; i < rooms; i++) {
    parts.push(skeleton(i));
    for (let k = 0; k < 7; k++) parts.push(path(i, k));
    parts.push('</g>');
  }
  parts.push(tail);
  return parts.join('');
}
