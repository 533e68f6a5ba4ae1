import type { MaterialChanges, SavedMaterial, SimContext, SimEvents } from '../model/context.ts'
import type { Id, Material } from '../model/state.ts'
import { accessUrlOf } from '../open/materials.ts'
import { createMaterialChanges } from './changes.ts'
import { createEmitter } from './emitter.ts'
import { emitIntake } from './intake.ts'
import type { WebhookSender } from './sender/sender.ts'

/**
 * The callbacks and asset events the live service emits: on upload (`materialsSaved`) and on the
 * changes the control API makes (`changes`). `random` draws the drift quirk's variations.
 */
export function createEvents(
  sim: SimContext,
  sender: WebhookSender,
  random: () => number,
): SimEvents & { changes: MaterialChanges } {
  const emitter = createEmitter(sim, sender, random)
  const downloadUrlOf = (m: Material) => accessUrlOf(sim.publicOrigin(), m)

  return {
    materialsSaved(materials: SavedMaterial[], initiatorUserId: Id) {
      // Notification only: a failure here must not fail the save that already happened.
      try {
        emitIntake(sim, emitter, materials, initiatorUserId)
      } catch (error) {
        sim.logger.error('could not emit the events of a material-save', { error })
      }
    },
    changes: createMaterialChanges(sim, emitter, downloadUrlOf),
  }
}
