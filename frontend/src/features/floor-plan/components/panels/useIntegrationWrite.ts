import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IntegrationMessageAnswer } from '@argentum/contracts';
import { showToast } from '../../../../shared/ui/toastStore';
import { controlQueries } from '../../api/control';

/**
 * A third-party device's write (Ryse, Nest, Ecobee): the vendor answers at once with the documented
 * text, toasted and shown; the device's reads are refreshed. Failures are toasted by the client.
 */
export function useIntegrationWrite<Args>(
  devID: string,
  write: (args: Args) => Promise<IntegrationMessageAnswer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (answer) => {
      showToast(answer.message, 'success');
      return queryClient.invalidateQueries({ queryKey: controlQueries.all(devID) });
    },
  });
}
