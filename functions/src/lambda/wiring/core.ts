/**
 * What every Lambda entry point wires: clock, logger, the user and tree stores. Entry points import
 * only the wiring modules their routes need, so a Lambda loads only the AWS clients its domain uses.
 */
import { assertConfigured } from '../../config';
import type { Clock, Logger } from '../../domain/ports';
import { systemClock } from '../../domain/ports';
import { log } from '../../http/log';
import { dynamoTreeStore } from '../../stores/tree';
import { dynamoUserStore } from '../../stores/users';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

export const clock: Clock = systemClock;
export const logger: Logger = { log };

export const users = dynamoUserStore;
export const tree = dynamoTreeStore;
