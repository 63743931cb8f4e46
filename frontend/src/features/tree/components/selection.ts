import { useSearchParams } from 'react-router';

/** The selected floor lives in the URL (/home?floor=<id>) so a link to it can be shared. */
const FLOOR_PARAM = 'floor';

export function useSelectedFloorId(): string | null {
  const [searchParams] = useSearchParams();
  const floorId = searchParams.get(FLOOR_PARAM);
  return floorId === '' ? null : floorId;
}

export function floorHref(floorId: string): string {
  return `/home?${new URLSearchParams({ [FLOOR_PARAM]: floorId }).toString()}`;
}
