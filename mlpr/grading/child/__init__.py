"""What runs beside a submission: the harness (`harness`) and the wire codec (`wire`) that it and
the grader share.

Nothing in this folder imports mlpr (a test holds it, for every module here): the sandbox stages
these files, and only these, into the submission's process, where mlpr is out of reach.
"""
