-- AlterTable
ALTER TABLE "exports" ADD COLUMN     "take" TEXT;
