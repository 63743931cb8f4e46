import type { IconName } from '../model/deviceKinds';

/**
 * One symbol per device icon, drawn once per page; markers reference them with <use>, so 2,000
 * markers cost 2,000 small elements instead of 2,000 copies of every path. Strokes use currentColor.
 */
const SYMBOLS: Record<IconName, string[]> = {
  gateway: [
    'M4 14h16v6H4z',
    'M8 17h.01M12 17h.01',
    'M12 14V9',
    'M8.5 7.5a5 5 0 0 1 7 0',
    'M6 5a8.5 8.5 0 0 1 12 0',
  ],
  node: ['M7 7h10v10H7z', 'M10 3v4M14 3v4M10 17v4M14 17v4M3 10h4M3 14h4M17 10h4M17 14h4'],
  powernode: ['M7 7h10v10H7z', 'M12.5 8.5 10 12.5h4l-2.5 3.5', 'M10 3v4M14 3v4M10 17v4M14 17v4'],
  light: ['M9 18h6M10 21h4', 'M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z'],
  thermistor: ['M14 14.76V4a2 2 0 0 0-4 0v10.76a4 4 0 1 0 4 0z', 'M12 18v-6'],
  motion: [
    'M12 12h.01',
    'M8.5 8.5a5 5 0 0 0 0 7M15.5 8.5a5 5 0 0 1 0 7',
    'M5.6 5.6a9 9 0 0 0 0 12.8M18.4 5.6a9 9 0 0 1 0 12.8',
  ],
  ieq: ['M6 19a4 4 0 0 1-.5-7.97A6 6 0 0 1 17 9.5a4.5 4.5 0 0 1 1 8.9', 'M8 19h9', 'M10 15.5h5'],
  switch: ['M3 9h18v6H3z', 'M15 12h.01', 'M15 9v6'],
  bacnet: ['M5 3h14v18H5z', 'M9 7h2M13 7h2M9 11h2M13 11h2M9 15h2M13 15h2', 'M11 21v-3h2v3'],
  thermostat: ['M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z', 'M12 7v5l3 2'],
  shades: ['M4 4h16', 'M6 4v11h12V4', 'M6 8h12M6 12h12', 'M12 15v4'],
  lock: ['M6 11h12v10H6z', 'M8.5 11V7.5a3.5 3.5 0 0 1 7 0V11', 'M12 15v2'],
  valve: ['M4 8v8l8-4-8-4zM20 8v8l-8-4 8-4z', 'M12 12V6', 'M9 4h6'],
  airflow: ['M3 8h11a3 3 0 1 0-3-3', 'M3 12h16a3 3 0 1 1-3 3', 'M3 16h7'],
};

const iconId = (name: IconName) => `floor-icon-${name}`;

/** An icon as a data URL, white strokes: the plan's markers draw it as their background (one element each). */
const iconUrl = (name: IconName) =>
  `url("data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${SYMBOLS[
      name
    ]
      .map((d) => `<path d="${d}"/>`)
      .join('')}</svg>`,
  )}")`;

/** One rule per icon for the markers ([data-icon]); written once, shared by every marker. */
const MARKER_ICON_RULES = (Object.keys(SYMBOLS) as IconName[])
  .map((name) => `[data-icon="${name}"]{background-image:${iconUrl(name)}}`)
  .join('\n');

export function DeviceIconSprite() {
  return (
    <svg width="0" height="0" style={{ position: 'absolute' }} aria-hidden="true" focusable="false">
      <style>{MARKER_ICON_RULES}</style>
      {(Object.keys(SYMBOLS) as IconName[]).map((name) => (
        <symbol
          key={name}
          id={iconId(name)}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          {SYMBOLS[name].map((d) => (
            <path key={d} d={d} />
          ))}
        </symbol>
      ))}
    </svg>
  );
}

/** One icon, for the legend, the list and the popup. */
export function DeviceIcon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} aria-hidden="true" focusable="false">
      <use href={`#${iconId(name)}`} />
    </svg>
  );
}
