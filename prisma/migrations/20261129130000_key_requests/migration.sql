-- Device key requests (the device flow): the read model of one workflow per request. Only the
-- device code's hash is kept; the key itself only sealed, from its approval until its claim.

CREATE TYPE "key_request_status" AS ENUM ('pending', 'approved', 'claimed', 'denied', 'expired');

CREATE TABLE "key_requests" (
    "id" UUID NOT NULL,
    "device_code_hash" TEXT NOT NULL,
    "user_code" TEXT NOT NULL,
    "live_user_code" TEXT,
    "name" TEXT NOT NULL,
    "requested_from" TEXT,
    "status" "key_request_status" NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "answered_by" UUID,
    "answered_at" TIMESTAMPTZ(3),
    "key_id" UUID,
    "key_sealed" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "key_requests_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "key_requests_device_code_hash_key" ON "key_requests"("device_code_hash");
CREATE UNIQUE INDEX "key_requests_live_user_code_key" ON "key_requests"("live_user_code");
CREATE UNIQUE INDEX "key_requests_key_id_key" ON "key_requests"("key_id");
CREATE INDEX "key_requests_user_code_idx" ON "key_requests"("user_code");
