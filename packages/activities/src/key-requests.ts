import {
  recordKeyApproval, recordKeyClaim, recordKeyDenial, recordKeyExpiry, revokeClaimedDeviceKey, wipeSealedDeviceKey, type KeyRequestStepDeps,
} from '@vp/accounts';
import type { KeyRequestSteps } from '@vp/workflows/key-request-definitions';

/** The steps of the key requests task queue: ids in, nothing out; the key is sealed and wiped in the database. */
export function createKeyRequestActivities(deps: KeyRequestStepDeps): KeyRequestSteps {
  return {
    approveKeyRequest: (input) => recordKeyApproval(deps, input),
    denyKeyRequest: (input) => recordKeyDenial(deps, input),
    claimKeyRequest: (input) => recordKeyClaim(deps, input),
    expireKeyRequest: (input) => recordKeyExpiry(deps, input),
    revokeClaimedKey: (input) => revokeClaimedDeviceKey(deps, input),
    wipeSealedKey: (input) => wipeSealedDeviceKey(deps, input),
  };
}
