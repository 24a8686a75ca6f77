"""The works the registered tests cite, each once.

A reference is a pair ``(citation, entry)``: the short author–year form a
report writes beside a test ("Demšar 2006") and the full entry of its
bibliography. A test declares the works behind it with ``references=`` of
:func:`~sklearn_bcv.register_test`; the reports cite them and list them
under "References". The multiplicity corrections and the effect sizes,
which are not registered tests, find theirs here by name.
"""

__all__ = [
    "BOUNDARY_REFERENCES",
    "CORRECTION_REFERENCES",
    "EFFECT_SIZE_REFERENCES",
    "SPLITTER_REFERENCES",
]

BENJAMINI_1995 = (
    "Benjamini & Hochberg 1995",
    "Y. Benjamini and Y. Hochberg. Controlling the false discovery rate: a "
    "practical and powerful approach to multiple testing. Journal of the "
    "Royal Statistical Society B, 57(1):289–300, 1995.",
)
BERGMANN_1988 = (
    "Bergmann & Hommel 1988",
    "B. Bergmann and G. Hommel. Improvements of general multiple test "
    "procedures for redundant systems of hypotheses. Multiple Hypotheses "
    "Testing, Springer, 100–115, 1988.",
)
FINNER_1993 = (
    "Finner 1993",
    "H. Finner. On a monotonicity problem in step-down multiple test "
    "procedures. Journal of the American Statistical Association, "
    "88(423):920–923, 1993.",
)
HOCHBERG_1988 = (
    "Hochberg 1988",
    "Y. Hochberg. A sharper Bonferroni procedure for multiple tests of "
    "significance. Biometrika, 75(4):800–802, 1988.",
)
HOLLAND_1987 = (
    "Holland & Copenhaver 1987",
    "B. S. Holland and M. D. Copenhaver. An improved sequentially rejective "
    "Bonferroni test procedure. Biometrics, 43(2):417–423, 1987.",
)
HOMMEL_1988 = (
    "Hommel 1988",
    "G. Hommel. A stagewise rejective multiple test procedure based on a "
    "modified Bonferroni test. Biometrika, 75(2):383–386, 1988.",
)
JENNISON_2000 = (
    "Jennison & Turnbull 2000",
    "C. Jennison and B. W. Turnbull. Group Sequential Methods with "
    "Applications to Clinical Trials. Chapman & Hall/CRC, 2000.",
)
LI_2008 = (
    "Li 2008",
    "J. Li. A two-step rejection procedure for testing multiple hypotheses. "
    "Journal of Statistical Planning and Inference, 138(6):1521–1527, 2008.",
)
OBRIEN_1979 = (
    "O'Brien & Fleming 1979",
    "P. C. O'Brien and T. R. Fleming. A multiple testing procedure for "
    "clinical trials. Biometrics, 35(3):549–556, 1979.",
)
PLACKETT_1975 = (
    "Plackett 1975",
    "R. L. Plackett. The analysis of permutations. Journal of the Royal "
    "Statistical Society C, 24(2):193–202, 1975.",
)
POCOCK_1977 = (
    "Pocock 1977",
    "S. J. Pocock. Group sequential methods in the design and analysis of "
    "clinical trials. Biometrika, 64(2):191–199, 1977.",
)
ROM_1990 = (
    "Rom 1990",
    "D. M. Rom. A sequentially rejective test procedure based on a modified "
    "Bonferroni inequality. Biometrika, 77(3):663–665, 1990.",
)
SHAFFER_1986 = (
    "Shaffer 1986",
    "J. P. Shaffer. Modified sequentially rejective multiple test "
    "procedures. Journal of the American Statistical Association, "
    "81(395):826–831, 1986.",
)
AGRESTI_2013 = (
    "Agresti 2013",
    "A. Agresti. Categorical Data Analysis, 3rd ed. Wiley, 2013.",
)
AKINSHIN_2020 = (
    "Akinshin 2020",
    "A. Akinshin. Nonparametric Cohen's d-consistent effect size, 2020.",
)
ALPAYDIN_1999 = (
    "Alpaydin 1999",
    "E. Alpaydin. Combined 5×2 cv F test for comparing supervised "
    "classification learning algorithms. Neural Computation, "
    "11(8):1885–1892, 1999.",
)
BAYLE_2020 = (
    "Bayle et al. 2020",
    "P. Bayle, A. Bayle, L. Janson and L. Mackey. Cross-validation confidence "
    "intervals for test error. Advances in Neural Information Processing "
    "Systems 33, 2020.",
)
BENAVOLI_2014 = (
    "Benavoli et al. 2014",
    "A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri. A "
    "Bayesian Wilcoxon signed-rank test based on the Dirichlet process. "
    "Proceedings of the 31st International Conference on Machine Learning "
    "(ICML), 2014.",
)
BENAVOLI_2017 = (
    "Benavoli et al. 2017",
    "A. Benavoli, G. Corani, J. Demšar and M. Zaffalon. Time for a change: a "
    "tutorial for comparing multiple classifiers through Bayesian analysis. "
    "Journal of Machine Learning Research, 18(77):1–36, 2017.",
)
BOUCKAERT_2004 = (
    "Bouckaert & Frank 2004",
    "R. R. Bouckaert and E. Frank. Evaluating the replicability of "
    "significance tests for comparing learning algorithms. PAKDD 2004, "
    "LNCS 3056:3–12, 2004.",
)
CALVO_2018 = (
    "Calvo et al. 2018",
    "B. Calvo, J. Ceberio and J. A. Lozano. Bayesian inference for algorithm "
    "ranking analysis. GECCO '18 Companion, 324–325, 2018.",
)
CARON_2012 = (
    "Caron & Doucet 2012",
    "F. Caron and A. Doucet. Efficient Bayesian inference for generalized "
    "Bradley-Terry models. Journal of Computational and Graphical Statistics, "
    "21(1):174–196, 2012.",
)
CLIFF_1993 = (
    "Cliff 1993",
    "N. Cliff. Dominance statistics: ordinal analyses to answer ordinal "
    "questions. Psychological Bulletin, 114(3):494–509, 1993.",
)
COCHRAN_1950 = (
    "Cochran 1950",
    "W. G. Cochran. The comparison of percentages in matched samples. "
    "Biometrika, 37(3/4):256–266, 1950.",
)
COHEN_1988 = (
    "Cohen 1988",
    "J. Cohen. Statistical Power Analysis for the Behavioral Sciences, 2nd "
    "ed. Lawrence Erlbaum, 1988.",
)
CONOVER_1999 = (
    "Conover 1999",
    "W. J. Conover. Practical Nonparametric Statistics, 3rd ed. Wiley, 1999.",
)
CORANI_2015 = (
    "Corani & Benavoli 2015",
    "G. Corani and A. Benavoli. A Bayesian approach for comparing "
    "cross-validated algorithms on multiple data sets. Machine Learning, "
    "100(2):285–304, 2015.",
)
CORANI_2017 = (
    "Corani et al. 2017",
    "G. Corani, A. Benavoli, J. Demšar, F. Mangili and M. Zaffalon. "
    "Statistical comparison of classifiers through Bayesian hierarchical "
    "modelling. Machine Learning, 106(11):1817–1837, 2017.",
)
DEL_BARRIO_2018 = (
    "del Barrio et al. 2018",
    "E. del Barrio, J. A. Cuesta-Albertos and C. Matrán. An optimal "
    "transportation approach for assessing almost stochastic order. The "
    "Mathematics of the Uncertain, Springer, 33–44, 2018.",
)
DEMSAR_2006 = (
    "Demšar 2006",
    "J. Demšar. Statistical comparisons of classifiers over multiple data "
    "sets. Journal of Machine Learning Research, 7:1–30, 2006.",
)
DIETTERICH_1998 = (
    "Dietterich 1998",
    "T. G. Dietterich. Approximate statistical tests for comparing supervised "
    "classification learning algorithms. Neural Computation, "
    "10(7):1895–1923, 1998.",
)
DROR_2019 = (
    "Dror et al. 2019",
    "R. Dror, S. Shlomov and R. Reichart. Deep dominance - how to properly "
    "compare deep neural models. Proceedings of the 57th Annual Meeting of "
    "the ACL, 2019.",
)
DUNN_1961 = (
    "Dunn 1961",
    "O. J. Dunn. Multiple comparisons among means. Journal of the American "
    "Statistical Association, 56(293):52–64, 1961.",
)
EDWARDS_1948 = (
    "Edwards 1948",
    "A. L. Edwards. Note on the 'correction for continuity' in testing the "
    "significance of the difference between correlated proportions or "
    "percentages. Psychometrika, 13(3):185–187, 1948.",
)
EFRON_1987 = (
    "Efron 1987",
    "B. Efron. Better bootstrap confidence intervals. Journal of the American "
    "Statistical Association, 82(397):171–185, 1987.",
)
EISINGA_2017 = (
    "Eisinga et al. 2017",
    "R. Eisinga, T. Heskes, B. Pelzer and M. Te Grotenhuis. Exact p-values "
    "for pairwise comparison of Friedman rank sums, with application to "
    "comparing classifiers. BMC Bioinformatics, 18:68, 2017.",
)
FRIEDMAN_1937 = (
    "Friedman 1937",
    "M. Friedman. The use of ranks to avoid the assumption of normality "
    "implicit in the analysis of variance. Journal of the American "
    "Statistical Association, 32(200):675–701, 1937.",
)
GARCIA_2008 = (
    "García & Herrera 2008",
    "S. García and F. Herrera. An extension on 'Statistical comparisons of "
    "classifiers over multiple data sets' for all pairwise comparisons. "
    "Journal of Machine Learning Research, 9:2677–2694, 2008.",
)
GARCIA_2010 = (
    "García et al. 2010",
    "S. García, A. Fernández, J. Luengo and F. Herrera. Advanced "
    "nonparametric tests for multiple comparisons in the design of "
    "experiments in computational intelligence and data mining: "
    "experimental analysis of power. Information Sciences, 180:2044–2064, "
    "2010.",
)
HODGES_1962 = (
    "Hodges & Lehmann 1962",
    "J. L. Hodges and E. L. Lehmann. Rank methods for combination of "
    "independent experiments in analysis of variance. Annals of "
    "Mathematical Statistics, 33:482–497, 1962.",
)
HOLM_1979 = (
    "Holm 1979",
    "S. Holm. A simple sequentially rejective multiple test procedure. "
    "Scandinavian Journal of Statistics, 6(2):65–70, 1979.",
)
IMAN_1980 = (
    "Iman & Davenport 1980",
    "R. L. Iman and J. M. Davenport. Approximations of the critical region "
    "of the Friedman statistic. Communications in Statistics - Theory and "
    "Methods, 9(6):571–595, 1980.",
)
LACOSTE_2012 = (
    "Lacoste et al. 2012",
    "A. Lacoste, F. Laviolette and M. Marchand. Bayesian comparison of "
    "machine learning algorithms on single and multiple datasets. AISTATS, "
    "2012.",
)
LOONEY_1988 = (
    "Looney 1988",
    "S. W. Looney. A statistical technique for comparing the accuracies of "
    "several classifiers. Pattern Recognition Letters, 8(1):5–9, 1988.",
)
MCNEMAR_1947 = (
    "McNemar 1947",
    "Q. McNemar. Note on the sampling error of the difference between "
    "correlated proportions or percentages. Psychometrika, 12(2):153–157, "
    "1947.",
)
NADEAU_2003 = (
    "Nadeau & Bengio 2003",
    "C. Nadeau and Y. Bengio. Inference for the generalization error. "
    "Machine Learning, 52(3):239–281, 2003.",
)
NEMENYI_1963 = (
    "Nemenyi 1963",
    "P. B. Nemenyi. Distribution-free multiple comparisons. PhD thesis, "
    "Princeton University, 1963.",
)
QUADE_1979 = (
    "Quade 1979",
    "D. Quade. Using weighted rankings in the analysis of complete blocks "
    "with additive block effects. Journal of the American Statistical "
    "Association, 74:680–683, 1979.",
)
ROMANO_2006 = (
    "Romano et al. 2006",
    "J. Romano, J. D. Kromrey, J. Coraggio and J. Skowronek. Appropriate "
    "statistics for ordinal level data: should we really be using t-test "
    "and Cohen's d for evaluating group differences on the NSSE and other "
    "surveys? Annual meeting of the Florida Association of Institutional "
    "Research, 2006.",
)
TUKEY_1949 = (
    "Tukey 1949",
    "J. W. Tukey. Comparing individual means in the analysis of variance. "
    "Biometrics, 5(2):99–114, 1949.",
)
WANG_2014 = (
    "Wang et al. 2014",
    "Y. Wang, R. Wang, H. Jia and J. Li. Blocked 3×2 cross-validated t-test "
    "for comparing supervised classification learning algorithms. Neural "
    "Computation, 26(1):208–235, 2014.",
)
WANG_2017 = (
    "Wang, Li & Li 2017",
    "Y. Wang, J. Li and Y. Li. Choosing between two classification learning "
    "algorithms based on calibrated balanced 5×2 cross-validated F-test. "
    "Neural Processing Letters, 46(1):1–13, 2017.",
)
WILCOXON_1945 = (
    "Wilcoxon 1945",
    "F. Wilcoxon. Individual comparisons by ranking methods. Biometrics "
    "Bulletin, 1(6):80–83, 1945.",
)
YANG_BCV = (
    "Yang et al. 2023",
    "J. Yang, R. Wang, Y. Song and J. Li. Block-regularized 5×2 "
    "cross-validated McNemar's test for comparing two classification "
    "algorithms. arXiv preprint arXiv:2304.03990, 2023.",
)
YILDIZ_2013 = (
    "Yildiz 2013",
    "O. T. Yildiz. Omnivariate rule induction using a novel pairwise "
    "statistical test. IEEE Transactions on Knowledge and Data Engineering, "
    "25(9):2105–2118, 2013.",
)

#: The multiplicity correction (``correction=``) -> the works a report
#: cites for it.
CORRECTION_REFERENCES = {
    "holm": (HOLM_1979,),
    "bonferroni": (DUNN_1961,),
    "hochberg": (HOCHBERG_1988,),
    "fdr_bh": (BENJAMINI_1995,),
    "hommel": (HOMMEL_1988,),
    "finner": (FINNER_1993,),
    "li": (LI_2008,),
    "holland": (HOLLAND_1987,),
    "rom": (ROM_1990,),
    "shaffer": (SHAFFER_1986, GARCIA_2008),
    "bergmann": (BERGMANN_1988, GARCIA_2008),
}

#: The boundaries of a sequential design -> the works a report cites.
BOUNDARY_REFERENCES = {
    "pocock": (POCOCK_1977, JENNISON_2000),
    "obrien_fleming": (OBRIEN_1979, JENNISON_2000),
}

#: The kind of an effect size -> the works a report cites for it (the
#: bootstrap of its interval: Efron 1987).
EFFECT_SIZE_REFERENCES = {
    "cohen_dz": (COHEN_1988,),
    "cohen_d": (COHEN_1988,),
    "cliff_delta": (CLIFF_1993, ROMANO_2006),
    "akinshin_gamma": (AKINSHIN_2020,),
    "bootstrap": (EFRON_1987,),
}

#: The splitters of this package -> the works a report cites for them.
SPLITTER_REFERENCES = {
    "bcv": (YANG_BCV,),
    "mx2": (DIETTERICH_1998, ALPAYDIN_1999),
}
