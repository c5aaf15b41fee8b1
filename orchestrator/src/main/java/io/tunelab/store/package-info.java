/**
 * Stage store of matrix → plan → run → agent → store → report: the results model and the store's
 * roles, {@link io.tunelab.store.RunStore} (what a run writes) and {@link
 * io.tunelab.store.ResultReader} (what readers read); no technology.
 */
package io.tunelab.store;
