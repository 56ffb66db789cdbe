-- The sweep epoch (docs/design.md, "Orphan objects"): a counter every sweep that reconciles S3 with the database
-- increments, here and then in the paste bucket's marker object sweeper/epoch. The database's counter behind the
-- marker's means the database went back in time (a restore, or another database): the sweeper then deletes no
-- object until an operator acknowledges it (docs/operating.md, "Restoring the database"):
--   UPDATE sweeper_epoch SET restore_acknowledged = true;
-- One row, never deleted.
--   epoch                 the last sweep epoch this database committed; 0 before the first sweep
--   restore_acknowledged  an operator's acknowledgement of a restore, spent by the next sweep, which moves the epoch
--                         past the marker's and reconciles again
CREATE TABLE sweeper_epoch (
    id                   BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (id),
    epoch                BIGINT NOT NULL CHECK (epoch >= 0),
    restore_acknowledged BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);

INSERT INTO sweeper_epoch (epoch) VALUES (0);
