-- Idempotency keys of business code (AxContext.idempotent, AxIdempotency) when the cluster has no Redis: the primary
-- key lets one insert win; a claim that has expired (expires_us, on the database's clock) is taken over by a
-- conditional update. Expired rows are deleted in small batches as claims go on.
CREATE TABLE ${prefix}idempotency (
    idem_key    VARCHAR(200) NOT NULL PRIMARY KEY,
    expires_us  BIGINT       NOT NULL
);

CREATE INDEX ${prefix}idempotency_expiry ON ${prefix}idempotency (expires_us);
