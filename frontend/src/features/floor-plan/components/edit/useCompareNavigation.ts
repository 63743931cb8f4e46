import type { DeviceView } from '@argentum/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { sensorDetailPath } from '../../../../shared/routes/sensorDetail';
import { showToast } from '../../../../shared/ui/toastStore';
import { compareProblem } from './rules';

/** The sensor detail page, comparing with another sensor. */
const sensorCompareHref = (devID: string, otherDevID: string) => sensorDetailPath(devID, otherDevID);

/** Compare IEQ's hand-off: the floor view calls it with the first and the second sensor. */
export function useCompareNavigation() {
  const navigate = useNavigate();
  return useCallback(
    (first: Pick<DeviceView, 'devID' | 'devType'>, second: Pick<DeviceView, 'devID' | 'devType'>) => {
      const problem = compareProblem(first, second);
      if (problem) {
        showToast(problem, 'warning');
        return;
      }
      void navigate(sensorCompareHref(first.devID, second.devID));
    },
    [navigate],
  );
}
