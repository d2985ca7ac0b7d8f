-- AlterTable
ALTER TABLE "link_emails" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1;
