/** Knobs for the matrix, plan and run stages: names, value checks and the order of applying. */
package io.tunelab.knob;
