import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newCommandRecord } from '../../src/domain/control/commands';
import type { CommandRecord, CommandStore } from '../../src/domain/control/ports';

/**
 * What every CommandStore must do, run against the DynamoDB adapter (DynamoDB Local, platform
 * project) and the in-memory fake (unit project), so use-case tests on the fake hold for the store.
 */
export function commandStoreContract(name: string, store: () => CommandStore) {
  describe(`CommandStore contract: ${name}`, () => {
    const t0 = Date.UTC(2026, 10, 24, 9);
    const device = () => ({
      devID: `cmd-${randomUUID().slice(0, 8)}`,
      orgID: 'org-contract',
      devName: 'Lock',
      devType: 7,
      connDev: 'lock',
    });
    const by = { userId: 'u1', userName: 'Ada' };
    const command = (at = t0, d = device()): CommandRecord =>
      newCommandRecord(d, { call: 'setBrightness', cmnd: 2, val: 60 }, by, at, 5000);
    const reply = (outcome: 'success' | 'fail', at: number) => ({
      outcome,
      action: outcome === 'success' ? 'success' : 'error',
      val: 60,
      at: new Date(at).toISOString(),
    });

    it('records a command once and reads it back as recorded', async () => {
      const c = command();
      await store().create(c);
      expect(await store().get(c.devID, c.commandId)).toEqual(c);
      await expect(store().create({ ...c, devName: 'Other' })).rejects.toThrow();
      expect((await store().get(c.devID, c.commandId))?.devName).toBe('Lock');
      expect(await store().get(c.devID, 'nope')).toBeUndefined();
    });

    it('moves requested -> sent once, and -> failed only while requested', async () => {
      const c = command();
      await store().create(c);
      expect(await store().markSent(c.devID, c.commandId, t0 + 10, t0 + 5010)).toBe(true);
      expect(await store().markSent(c.devID, c.commandId, t0 + 20, t0 + 5020)).toBe(false);
      await store().markUnsent(c.devID, c.commandId, reply('fail', t0 + 30));
      expect(await store().get(c.devID, c.commandId)).toMatchObject({
        status: 'sent',
        sentAt: t0 + 10,
        deadlineAt: t0 + 5010,
      });
      const unsent = command();
      await store().create(unsent);
      await store().markUnsent(unsent.devID, unsent.commandId, reply('fail', t0));
      expect(await store().get(unsent.devID, unsent.commandId)).toMatchObject({
        status: 'failed',
        reply: reply('fail', t0),
      });
    });

    it('settles a word in time once; a redelivered word changes nothing', async () => {
      const c = command();
      await store().create(c);
      await store().markSent(c.devID, c.commandId, t0, t0 + 5000);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('success', t0 + 100), t0 + 100, 'in time'),
      ).toBe(true);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('fail', t0 + 200), t0 + 200, 'in time'),
      ).toBe(false);
      expect(await store().get(c.devID, c.commandId)).toMatchObject({
        status: 'confirmed',
        reply: reply('success', t0 + 100),
      });
    });

    it('refuses a word "in time" after the deadline, and takes one late word only', async () => {
      const c = command();
      await store().create(c);
      await store().markSent(c.devID, c.commandId, t0, t0 + 5000);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('success', t0 + 6000), t0 + 6000, 'in time'),
      ).toBe(false);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('success', t0 + 6000), t0 + 6000, 'late'),
      ).toBe(true);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('fail', t0 + 7000), t0 + 7000, 'late'),
      ).toBe(false);
      expect(await store().get(c.devID, c.commandId)).toMatchObject({
        status: 'confirmed late',
        lateReply: reply('success', t0 + 6000),
      });
    });

    it('records a timeout only past the deadline, then keeps a late failure as the late word', async () => {
      const c = command();
      await store().create(c);
      await store().markSent(c.devID, c.commandId, t0, t0 + 5000);
      expect(await store().recordTimeout(c.devID, c.commandId, t0 + 4000)).toBe(false);
      expect(await store().recordTimeout(c.devID, c.commandId, t0 + 6000)).toBe(true);
      expect(await store().recordTimeout(c.devID, c.commandId, t0 + 7000)).toBe(false);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('fail', t0 + 8000), t0 + 8000, 'late'),
      ).toBe(true);
      expect(await store().get(c.devID, c.commandId)).toMatchObject({
        status: 'timed out',
        lateReply: reply('fail', t0 + 8000),
      });
    });

    it('settles a command recorded timed out by a word received before its deadline, once', async () => {
      const c = command();
      await store().create(c);
      await store().markSent(c.devID, c.commandId, t0, t0 + 5000);
      expect(await store().recordTimeout(c.devID, c.commandId, t0 + 6000)).toBe(true);
      expect(
        await store().recordReply(c.devID, c.commandId, reply('success', t0 + 4000), t0 + 4000, 'in time'),
      ).toBe(true);
      expect(await store().get(c.devID, c.commandId)).toMatchObject({
        status: 'confirmed',
        reply: reply('success', t0 + 4000),
      });
      expect(
        await store().recordReply(c.devID, c.commandId, reply('fail', t0 + 4500), t0 + 4500, 'in time'),
      ).toBe(false);
      // A word after the deadline never settles it in time.
      const d = command();
      await store().create(d);
      await store().markSent(d.devID, d.commandId, t0, t0 + 5000);
      expect(await store().recordTimeout(d.devID, d.commandId, t0 + 6000)).toBe(true);
      expect(
        await store().recordReply(d.devID, d.commandId, reply('success', t0 + 5500), t0 + 5500, 'in time'),
      ).toBe(false);
    });

    it("answers a device's newest commands first, up to the limit, and no other device's", async () => {
      const d = device();
      const made = [command(t0, d), command(t0 + 1000, d), command(t0 + 2000, d)];
      for (const c of made) await store().create(c);
      await store().create(command(t0 + 3000));
      expect((await store().recent(d.devID, 2)).map((c) => c.commandId)).toEqual([
        made[2]?.commandId,
        made[1]?.commandId,
      ]);
      expect(await store().recent(d.devID, 10)).toHaveLength(3);
    });

    it("keeps a port's newest confirmed value; an older one never overwrites it", async () => {
      const devID = device().devID;
      const state = (val: number, reportedAt: number) => ({
        devID,
        port: '1',
        val,
        reportedAt,
        commandId: 'c',
      });
      expect(await store().reportedState(devID, '1')).toBeUndefined();
      await store().recordState(state(1, t0 + 100));
      await store().recordState(state(0, t0 + 50));
      expect(await store().reportedState(devID, '1')).toEqual(state(1, t0 + 100));
      await store().recordState(state(0, t0 + 200));
      expect(await store().reportedState(devID, '1')).toEqual(state(0, t0 + 200));
      expect(await store().reportedState(devID, '2')).toBeUndefined();
    });
  });
}
