"""Units for F_2^m: adders, k-fold squarers and square roots (``powers``), the multipliers
(``parallel``, ``sequential``, ``iterative``, ``digit_serial`` on the contract of ``mulbase``), the
networks they are built from (``nets``), the sequential plans (``plan``) and the catalogue that
makes a multiplier by name (``catalogue``)."""
