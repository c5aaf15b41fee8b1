/** Input to the run stage (matrix → plan → run): the hosts of an inventory, read and checked. */
package io.tunelab.inventory;
