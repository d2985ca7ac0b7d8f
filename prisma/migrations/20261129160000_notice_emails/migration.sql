-- Notices by e-mail (video delivered, production failed): one row per production, kind and
-- recipient, claimed before the send so that a retried activity sends each one message.
CREATE TABLE "notice_emails" (
    "production_id" UUID NOT NULL,
    "kind" "email_kind" NOT NULL,
    "email" TEXT NOT NULL,
    "status" "link_email_status" NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    CONSTRAINT "notice_emails_pkey" PRIMARY KEY ("production_id", "kind", "email")
);
ALTER TABLE "notice_emails" ADD CONSTRAINT "notice_emails_production_id_fkey" FOREIGN KEY ("production_id") REFERENCES "productions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
