/** Stage matrix (matrix → plan → run → agent → store → report): a matrix file, read and checked. */
package io.tunelab.matrix;
