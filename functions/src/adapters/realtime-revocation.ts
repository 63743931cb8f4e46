// Replaced by the connection registry and IoT Core DeleteConnection adapter (hardening item 6).
export const realtimeRevocation = {
  async revoke(_userId: string, _orgIds: readonly string[]): Promise<void> {},
};
