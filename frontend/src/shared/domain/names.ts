/** Spec section 9: device and tree names are displayed truncated at 20 characters. */
export const NAME_DISPLAY_LIMIT = 20;

export function truncateName(name: string, limit = NAME_DISPLAY_LIMIT): string {
  return name.length > limit ? `${name.slice(0, limit)}…` : name;
}
