"""A conformance kit for Go rules kernels: check any kernel against ikeda, move by move,
over GTP (:class:`GtpKernel`) or in process through the adapter protocol
(:class:`Kernel`); docs/conformance.md."""

from __future__ import annotations

from .check import Checker, Divergence, Finding, Report
from .gtp_kernel import GtpKernel
from .kernel import CHECKS, Kernel, NotApplicable, parse_score

__all__ = ["CHECKS", "Checker", "Divergence", "Finding", "GtpKernel", "Kernel", "NotApplicable", "Report", "parse_score"]
