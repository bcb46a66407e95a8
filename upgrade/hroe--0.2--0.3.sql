-- hroe 0.2 -> 0.3 (ALTER EXTENSION hroe UPDATE TO '0.3')
--
-- What changed (CHANGELOG.md, 0.3): each change to the install script's
-- pieces in src/ is repeated here, so that an updated 0.2 database has the
-- catalog of a fresh 0.3 installation (test/t_upgrade.sh compares them).

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.3'" to load this file. \quit
