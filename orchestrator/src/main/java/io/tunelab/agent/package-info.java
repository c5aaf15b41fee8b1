/** Stage agent of matrix → plan → run → agent → store → report: typed host-agent client. */
package io.tunelab.agent;
