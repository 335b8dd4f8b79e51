/**
 * Not exported: the built-in node-id sources, how the host is recognised, and the plan of a
 * one-host lease. Public only so that {@link io.snowid.node.NodeIdChain} and {@code
 * io.snowid.lease} can use them; an application has no need of them (docs/design.md, section 2).
 */
package io.snowid.node.internal;
