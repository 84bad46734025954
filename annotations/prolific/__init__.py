"""Running a study on Prolific from the admin: sync (places freed by returned, timed-out and
rejected submissions, and by idle conversations), review (approve, reject with a reason) and
bonuses paid exactly once. The API client itself is ``attune_collect/prolific`` (no Django).

Who may act: ``annotations.operate_prolific`` in the study's scope (``access.py``): researchers
of the study; viewers, reviewers and outsiders may not.
"""
