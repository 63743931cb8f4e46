import * as z from 'zod/mini';
import './schema-messages';
import { COMMAND_HISTORY_MAX_LIMIT } from './control';
import { brightnessValueText, CONTROL_NUMBER_LIMIT, shadeValueText } from './control-values';
import { body, devId, devType } from './requests';

/**
 * Request schemas of the device-control calls (/api/deviceControl), each built by a function on its
 * call's first use (`api.ts`), shared by the route table, which validates with them, and the front end
 * (`import type` only). Every failure names the field.
 */

const valueText = 'value must be a number, a text, true or false, or a list of up to 8 numbers.';
/** A number a command may carry: beyond CONTROL_NUMBER_LIMIT it is not exact (nor storable as one). */
const controlNumber = () =>
  z.number().check(z.minimum(-CONTROL_NUMBER_LIMIT), z.maximum(CONTROL_NUMBER_LIMIT));
const required = (field: string, otherwise: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required.` : otherwise;

/** A list of port states such as [1,0,0,0] (lock) or [1,1,1,1] (shades up); `error` for any failure. */
const portStates = (error: string) =>
  z.array(z.union([z.literal(0), z.literal(1)], { error }), { error }).check(z.length(4, { error }));
/** A number from min to max; `error` for any failure. */
const numberIn = (min: number, max: number, error: string) =>
  z.number({ error }).check(z.minimum(min, { error }), z.maximum(max, { error }));
const brightnessText = brightnessValueText;
const shadesText = shadeValueText;
const fanValveText =
  'value must be a fan speed or valve opening from 0 to 10, a comfort zone temperature from 15 to 30, or a lock state such as [1,0,0,0].';
const anyValue = z.lazy(() =>
  z.union(
    [
      controlNumber(),
      z.string().check(z.maxLength(64)),
      z.boolean(),
      z.array(controlNumber()).check(z.maxLength(8)),
    ],
    { error: required('value', valueText) },
  ),
);
export const controlPort = z.lazy(() =>
  z.union(
    [
      z.number().check(z.int(), z.minimum(0), z.maximum(8)),
      z.string().check(z.trim(), z.minLength(1), z.maxLength(8)),
    ],
    {
      error: required('port', 'port must be a port number (0 to 8) or a short text.'),
    },
  ),
);
/** The user name older clients send; the server records the signed-in user instead. */
const user = z.lazy(() => z.optional(z.string().check(z.maxLength(100))));

export const controlRequests = {
  setBrightness: () =>
    body({
      value: z
        .number({ error: required('value', brightnessText) })
        .check(z.minimum(0, { error: brightnessText }), z.maximum(100, { error: brightnessText })),
      devID: devId,
      port: controlPort,
      devType,
      user,
      groupNumber: z.optional(
        z.union(
          [
            z.number().check(z.int(), z.minimum(0), z.maximum(99999)),
            z.string().check(z.trim(), z.minLength(1), z.maxLength(16)),
          ],
          {
            error: 'groupNumber must be a group number.',
          },
        ),
      ),
    }),
  getLockValue: () => body({ devID: devId, devType, port: controlPort }),
  getFanValveValue: () => body({ devID: devId, devType, port: controlPort }),
  setRollerShadesValue: () =>
    body({
      value: z.union(
        [portStates(shadesText), numberIn(0, 100, shadesText).check(z.int({ error: shadesText }))],
        {
          error: required('value', shadesText),
        },
      ),
      devID: devId,
      port: controlPort,
      devType,
      user,
    }),
  setFanValveValue: () =>
    body({
      value: z.union([numberIn(0, 30, fanValveText), portStates(fanValveText)], {
        error: required('value', fanValveText),
      }),
      devID: devId,
      port: controlPort,
      devType,
      user,
    }),
  setbacnetinfo: () =>
    body({
      value: z.union([controlNumber(), z.string().check(z.maxLength(64)), z.boolean()], {
        error: required('value', 'value must be a number, a text, or true or false.'),
      }),
      devID: devId,
      port: controlPort,
      key: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
      devType,
      user,
    }),
  testDevice: () => body({ devID: devId, devType }),
  setValueOnDevices: () =>
    body({
      devIDs: z.array(devId).check(z.minLength(1), z.maxLength(50)),
      devType,
      value: anyValue,
      port: z.optional(controlPort),
    }),
  getCommandHistory: () =>
    body({
      devID: devId,
      limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(COMMAND_HISTORY_MAX_LIMIT))),
    }),
};

/** The body of a control call, as the client sends it. */
export type ControlRequest<Call extends keyof typeof controlRequests> = z.input<
  ReturnType<(typeof controlRequests)[Call]>
>;
