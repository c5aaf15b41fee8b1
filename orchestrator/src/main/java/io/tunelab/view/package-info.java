/**
 * Views: what commands print about runs, queues and plans (status, queue, plan JSON, workload text,
 * the progress line), rendered from records the commands fetched. Pure: no files, no database, no
 * command line; golden-tested.
 */
package io.tunelab.view;
