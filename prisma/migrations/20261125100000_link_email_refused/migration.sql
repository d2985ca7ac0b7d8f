-- AlterEnum
ALTER TYPE "link_email_status" ADD VALUE 'refused';
