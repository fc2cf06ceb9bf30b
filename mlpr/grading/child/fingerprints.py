"""The fingerprints of the course's published lab functions (data, no code of theirs).

Each entry is `mlpr.grading.child.discover.fingerprint` of one function of the course's
published lab files: those that carry the course author's header, as students commit them, and
the published lab solutions of the course (the repository marcodonatucci/MLPR_Labs, at commit
8306886). Made with ``python mlpr/grading/child/discover.py --fingerprints FILE...``; only the
hashes are kept. A function too short to tell apart (``vcol``) has no fingerprint.
"""

FINGERPRINTS = (
    "057417d1f7b2a017", "08f51d188fd05a14", "0b8be5635aee7337", "114e66613d46542a",
    "152735cc0ff48f71", "18f3b1da5000afd5", "1ad4e2927ac6ad95", "1dbceb121a62fbca",
    "1eb47c9ff7cb5d86", "2002a7a679d92efd", "23c0b5de9780293a", "2ee5120cd4b6d0bf",
    "30f2582b9a151e78", "3682c2df369ad7cd", "43c585f8282c5c16", "4410273d839fec20",
    "4879567cc606fa7e", "48c171a272248935", "494ef21aa8654a95", "4bbf7a4709a9e98f",
    "4ccd6de1748509d8", "4d4e8fe993485f35", "50b913ebaff79023", "53714c9e6dcf0f00",
    "559e7ca2f531dffa", "58494e7da35c4444", "5991bd9229f81e57", "5a1e18b5804c763f",
    "5acbbf1c064fd99b", "62a45b8fc8dd2512", "67452282622fdc59", "6ae749fbb6da8310",
    "7727c09737ed1578", "82d7560be76373a0", "82eb0a836bd1f67d", "85a8fe5f7cad212b",
    "9102500dee25b0aa", "949e2fa31764ae3b", "96e23e0c6c888990", "99d5fea4149cccce",
    "9b0f3cb523f5df46", "a1755dd84258b62b", "aa7a1482a7da18fb", "b1e61cbd6acc195e",
    "b4b438782f1a77d3", "b7aae1b06881d63c", "b8ebf450b5b0ee53", "b99ce88a13f3f72d",
    "bf0a4785ad06179c", "bf8f0b17d6e53de9", "c601bae0061ecd6c", "c6f5693a6b3269e6",
    "cb4fa2db4cea10b2", "d862e4d64c746893", "d8c1006f13c408a2", "dae844847e33d620",
    "e2fbe808f7833038", "e337f55b872cce94", "e344722c0b49ab50", "ea609d5f184eb09d",
    "ef0b45c2a685ba3e", "efba08eb00f13187",
)
