import { type KeyboardEvent } from 'react';
import { THERMOSTAT_DIAL } from '@argentum/contracts';
import styles from './panels.module.css';

const SWEEP = 270;
const START = 135; // degrees from the x axis (clockwise on screen): the lower left
const COLOURS = { cool: '#1565c0', heat: '#d84315', eco: '#2e7d32' } as const;

interface ThermostatDialProps {
  min: number;
  max: number;
  step: number;
  target: number;
  ambient: number | null;
  tone: keyof typeof COLOURS;
  disabled: boolean;
  onChange(target: number): void;
}

/**
 * The Nest-style dial: THERMOSTAT_DIAL.ticks ticks over min-max, lit up to the target; the target in
 * the middle, the ambient temperature below it. A slider for the keyboard (arrows: one step).
 */
export function ThermostatDial({
  min,
  max,
  step,
  target,
  ambient,
  tone,
  disabled,
  onChange,
}: ThermostatDialProps) {
  const fraction = max > min ? (target - min) / (max - min) : 0;
  const ticks = Array.from({ length: THERMOSTAT_DIAL.ticks }, (_, i) => {
    const at = i / (THERMOSTAT_DIAL.ticks - 1);
    const angle = ((START + at * SWEEP) * Math.PI) / 180;
    return { i, active: at <= fraction + 1e-9, cos: Math.cos(angle), sin: Math.sin(angle) };
  });
  const clamp = (value: number) => Math.min(max, Math.max(min, Math.round(value / step) * step));
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (disabled) return;
    const change: Record<string, number> = {
      ArrowUp: step,
      ArrowRight: step,
      ArrowDown: -step,
      ArrowLeft: -step,
    };
    const by = change[event.key];
    if (by === undefined) return;
    event.preventDefault();
    onChange(clamp(target + by));
  };
  return (
    <svg
      className={styles.dial}
      viewBox="-100 -100 200 200"
      role="slider"
      aria-label="Target temperature"
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={target}
      aria-valuetext={`${target.toFixed(1)} °C`}
      aria-disabled={disabled}
      tabIndex={disabled ? -1 : 0}
      onKeyDown={onKeyDown}
    >
      <circle r="98" fill={COLOURS[tone]} />
      <circle r="70" fill="rgb(0 0 0 / 12%)" />
      {ticks.map(({ i, active, cos, sin }) => (
        <line
          key={i}
          className={styles.dialTick}
          data-active={active}
          x1={cos * 78}
          y1={sin * 78}
          x2={cos * (active ? 94 : 90)}
          y2={sin * (active ? 94 : 90)}
        />
      ))}
      <text y="14" textAnchor="middle" fill="#fff" fontSize="46" fontWeight="300">
        {target.toFixed(1)}
      </text>
      <text y="42" textAnchor="middle" fill="rgb(255 255 255 / 85%)" fontSize="13">
        {ambient === null ? 'Inside –' : `Inside ${ambient.toFixed(1)} °C`}
      </text>
      <text y="-38" textAnchor="middle" fill="rgb(255 255 255 / 85%)" fontSize="12" letterSpacing="1">
        {tone === 'eco' ? 'ECO' : tone === 'heat' ? 'HEATING' : 'COOLING'}
      </text>
    </svg>
  );
}
