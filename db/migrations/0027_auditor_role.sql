-- The auditor role (docs/api.md "Auth"): reads what an admin reads, changes nothing.
ALTER TYPE "public"."user_role" ADD VALUE 'auditor';
