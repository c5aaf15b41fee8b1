/** Under stage agent (matrix → plan → run → agent → store → report): local, SSH, sudo. */
package io.tunelab.remote;
