// Where a link's journey is, for the channel's portal timeline: the current step and
// the times the journey keeps (it records no history of steps, only where it is now).
// Nothing personal: no phone, no customer data, no consent evidence beyond its time.
import type { Context } from '../context.ts';
import { findJourney, type Step } from './journey.repository.ts';

export interface JourneyProgress {
  etapa: Step;
  /** When the journey last moved (or changed within its step). */
  atualizadaEm: Date;
  codigoEnviadoEm?: Date;
  consentimentoEm?: Date;
  /** Why it ended, as a code (e.g. `sms_recusado`), when it ended early. */
  motivoEncerramento?: string;
}

/** The journey of a link the caller already knows is the channel's (getLink first). */
export async function journeyProgress(deps: Pick<Context, 'database'>, linkId: string): Promise<JourneyProgress | undefined> {
  const row = await findJourney(deps.database.db, linkId);
  if (!row) return undefined;
  return {
    etapa: row.step as Step,
    atualizadaEm: row.updated_at,
    ...(row.code_sent_at ? { codigoEnviadoEm: row.code_sent_at } : {}),
    ...(row.consent_at ? { consentimentoEm: row.consent_at } : {}),
    ...(row.end_reason ? { motivoEncerramento: row.end_reason } : {}),
  };
}
