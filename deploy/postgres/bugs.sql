-- One row per bug: reports grouped by their signature (the same bug gives
-- the same signature across runs, address randomisation, machines and
-- rebuilds), most reported first, with where and when it was seen and one
-- report's title and top frame to read.
SELECT doc->>'signature' AS signature,
       min(doc->>'bug_type') AS bug_type,
       count(*) AS reports,
       count(DISTINCT host) AS hosts,
       count(DISTINCT program) AS programs,
       min(received) AS first_seen,
       max(received) AS last_seen,
       min(doc->>'title') AS title,
       min(doc->'stacks'->'access'->0->>'function') AS top_frame
FROM ukasan_reports
GROUP BY doc->>'signature'
ORDER BY reports DESC, signature;
