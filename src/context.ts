// What every part of the service receives: built once at start-up, passed down.
import type { Config } from './config/config.ts';
import type { Database } from './db/database.ts';
import type { Keys } from './crypto/keys.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './observability/logger.ts';
import type { BankGateway } from './bank/bank-gateway.ts';
import type { Deliverer } from './webhooks/delivery/deliverer.ts';

export interface Context {
  config: Config;
  database: Database;
  keys: Keys;
  clock: Clock;
  log: Logger;
  bank: BankGateway;
  /** Sends signed webhook requests (network or the test inbox). */
  deliverer: Deliverer;
}
