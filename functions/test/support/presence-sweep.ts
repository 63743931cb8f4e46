import { type PresenceDevice, type PresencePorts, sweepPresence } from '../../src/domain/devices/presence';
import { presencePorts } from '../../src/lambda/wiring/presence';
import { asFunction } from '../../../infra/local/function-grants';

/**
 * The presence sweep as its schedule runs it, as its function (its table access), at `time`, over
 * the watched devices `which` keeps: other files' devices are theirs to sweep. `ports` replace the
 * function's own (say, a live channel that loses what it is given).
 */
export function sweepWatched(
  which: (device: PresenceDevice) => boolean,
  time: number,
  ports: Partial<Omit<PresencePorts, 'presence'>> = {},
) {
  const own = presencePorts();
  return asFunction('presence-sweep', () =>
    sweepPresence(
      {
        ...own,
        ...ports,
        presence: { ...own.presence, watched: async () => (await own.presence.watched()).filter(which) },
      },
      time,
    ),
  );
}
