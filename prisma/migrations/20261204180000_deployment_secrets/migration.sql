-- Secrets shared by every process of a deployment that nobody has to configure: the key of
-- screenshot capability URLs when SCREENSHOT_URL_SECRET is unset. Written once by whichever
-- process asks first (ON CONFLICT DO NOTHING), read by all replicas.
CREATE TABLE "deployment_secrets" (
    "name" TEXT NOT NULL,
    "value" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_secrets_pkey" PRIMARY KEY ("name")
);
