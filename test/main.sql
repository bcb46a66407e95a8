-- The README's getting-started SQL, run by test/main.sh
CREATE EXTENSION hroe;
SELECT extname, extversion FROM pg_extension WHERE extname = 'hroe';
