-- The app: sessions, sign-in links, invitations, passkeys and e-mail choices; how each API key
-- was made; a workspace's saved brand.

CREATE TYPE "key_origin" AS ENUM ('app', 'device', 'operator');
CREATE TYPE "email_kind" AS ENUM ('pitch_ready', 'video_delivered', 'production_failed');

-- Keys made before the app were made by an operator.
ALTER TABLE "api_keys" ADD COLUMN "made_by" "key_origin" NOT NULL DEFAULT 'operator';
ALTER TABLE "workspaces" ADD COLUMN "brand" JSONB;

CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "workspace_id" UUID,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");
CREATE INDEX "sessions_account_id_idx" ON "sessions"("account_id");
CREATE INDEX "sessions_last_used_at_idx" ON "sessions"("last_used_at");

CREATE TABLE "sign_in_tokens" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "invitation_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "sign_in_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sign_in_tokens_token_hash_key" ON "sign_in_tokens"("token_hash");
CREATE INDEX "sign_in_tokens_expires_at_idx" ON "sign_in_tokens"("expires_at");

CREATE TABLE "invitations" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "role" NOT NULL,
    "invited_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "invitations_workspace_id_idx" ON "invitations"("workspace_id");
CREATE INDEX "invitations_email_idx" ON "invitations"("email");

CREATE TABLE "passkeys" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "credential_id" TEXT NOT NULL,
    "public_key" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[],
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "passkeys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "passkeys_credential_id_key" ON "passkeys"("credential_id");
CREATE INDEX "passkeys_account_id_idx" ON "passkeys"("account_id");

CREATE TABLE "passkey_challenges" (
    "id" UUID NOT NULL,
    "challenge" TEXT NOT NULL,
    "session_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "passkey_challenges_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "passkey_challenges_expires_at_idx" ON "passkey_challenges"("expires_at");

CREATE TABLE "email_opt_outs" (
    "account_id" UUID NOT NULL,
    "kind" "email_kind" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_opt_outs_pkey" PRIMARY KEY ("account_id", "kind")
);

ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "sign_in_tokens" ADD CONSTRAINT "sign_in_tokens_invitation_id_fkey" FOREIGN KEY ("invitation_id") REFERENCES "invitations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "passkey_challenges" ADD CONSTRAINT "passkey_challenges_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "email_opt_outs" ADD CONSTRAINT "email_opt_outs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
